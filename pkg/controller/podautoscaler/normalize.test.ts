import { describe, expect, it } from 'vitest';
import { Normalizer, type Behavior } from './normalize.js';

const DEFAULT_BEHAVIOR: Behavior = {
  scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
  scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
};

function normalizer(): { n: Normalizer; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { n: new Normalizer(() => t, 300_000), advance: (ms) => { t += ms; } };
}

describe('normalizing a recommendation (upstream horizontal.go)', () => {
  it('without behavior: holds the highest recent recommendation and limits a scale-up to max(2 × current, 4)', () => {
    const { n, advance } = normalizer();
    n.recordInitial('a', 5);
    expect(n.normalize('a', undefined, 5, 2, 1, 10)).toEqual({
      replicas: 5,
      ableToScale: { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' },
      limited: { status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' },
    });
    advance(301_000);
    expect(n.normalize('a', undefined, 5, 2, 1, 10)).toMatchObject({ replicas: 2, ableToScale: { reason: 'ReadyForNewScale' } });
    expect(n.normalize('b', undefined, 1, 10, 1, 20)).toMatchObject({ replicas: 4, limited: { status: 'True', reason: 'ScaleUpLimit' } });
    expect(n.normalize('c', undefined, 4, 10, 1, 5)).toMatchObject({ replicas: 5, limited: { status: 'True', reason: 'TooManyReplicas' } });
    expect(n.normalize('d', undefined, 2, 0, 1, 5)).toMatchObject({ replicas: 1, limited: { status: 'True', reason: 'TooFewReplicas' } });
  });

  it('with behavior: the scaling policies over the changes made within their periods', () => {
    const { n, advance } = normalizer();
    n.recordInitial('a', 2);
    // Pods 4 → 6, Percent 100% → 4; Max picks 6
    expect(n.normalize('a', DEFAULT_BEHAVIOR, 2, 20, 1, 50)).toMatchObject({ replicas: 6, limited: { status: 'True', reason: 'ScaleUpLimit' } });
    n.recordScale('a', DEFAULT_BEHAVIOR, 2, 6);
    advance(5_000);
    // the period started at 2 replicas: nothing more until it has passed
    expect(n.normalize('a', DEFAULT_BEHAVIOR, 6, 20, 1, 50)).toMatchObject({ replicas: 6, limited: { reason: 'ScaleUpLimit' } });
    advance(11_000);
    expect(n.normalize('a', DEFAULT_BEHAVIOR, 6, 20, 1, 50)).toMatchObject({ replicas: 12 });
    const min: Behavior = { ...DEFAULT_BEHAVIOR, scaleUp: { ...DEFAULT_BEHAVIOR.scaleUp, selectPolicy: 'Min' } };
    expect(n.normalize('b', min, 10, 40, 1, 50)).toMatchObject({ replicas: 14 });
  });

  it('with behavior: the scale-down window holds the highest, a scale-up window the lowest, Disabled holds all', () => {
    const { n, advance } = normalizer();
    n.recordInitial('a', 10);
    expect(n.normalize('a', DEFAULT_BEHAVIOR, 10, 2, 1, 50)).toMatchObject({ replicas: 10, ableToScale: { reason: 'ScaleDownStabilized' } });
    advance(301_000);
    expect(n.normalize('a', DEFAULT_BEHAVIOR, 10, 2, 1, 50)).toMatchObject({ replicas: 2, limited: { status: 'False' } });
    const noDown: Behavior = { ...DEFAULT_BEHAVIOR, scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Disabled', policies: [] } };
    expect(n.normalize('b', noDown, 10, 2, 1, 50)).toMatchObject({ replicas: 10, limited: { status: 'True', reason: 'ScaleDownLimit' } });
    const slowUp: Behavior = { ...DEFAULT_BEHAVIOR, scaleUp: { ...DEFAULT_BEHAVIOR.scaleUp, stabilizationWindowSeconds: 60 } };
    n.recordInitial('c', 3);
    advance(1_000);
    expect(n.normalize('c', slowUp, 3, 8, 1, 50)).toMatchObject({ replicas: 3, ableToScale: { reason: 'ScaleUpStabilized' } });
    advance(60_000);
    expect(n.normalize('c', slowUp, 3, 8, 1, 50)).toMatchObject({ replicas: 7, limited: { reason: 'ScaleUpLimit' } });
  });
});
