// DefaultPreemption (PostFilter): when no node fits, find the node where evicting the fewest, lowest-priority pods
// (sparing those a PodDisruptionBudget protects where possible) lets the pod fit; nominate the pod there and delete
// the victims. As upstream's defaultpreemption + framework/preemption.
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { formatTime, isNotFound, type KubeObject } from '../../client/index.js';
import { reasonHistogram } from '../diagnosis.js';
import { Code, errorStatus, status, unresolvable, unschedulable, type CycleState, type Handle, type PostFilterPlugin, type Status } from '../framework/interface.js';
import type { NodeInfo } from '../node-info.js';
import { podKey, podPriority, type Pod } from '../types.js';

interface Candidate { node: NodeInfo; victims: Pod[]; pdbViolations: number }

const startTime = (p: Pod): number => Date.parse(p.status?.startTime ?? p.metadata?.creationTimestamp ?? '') || 0;

export const defaultPreemption = (args: Record<string, any>, handle: Handle): PostFilterPlugin => {
  const minCandidatePct = (args.minCandidateNodesPercentage as number | undefined) ?? 10;
  const minCandidateAbs = (args.minCandidateNodesAbsolute as number | undefined) ?? 100;

  const pdbsFor = (pod: Pod): KubeObject[] => handle.listers.pdbs.namespace(pod.metadata?.namespace ?? '').list().filter((pdb) => {
    try {
      const sel = labelSelectorAsSelector(pdb.spec?.selector);
      return !sel.empty && sel.matches(pod.metadata?.labels);
    } catch { return false; }
  });

  /**
   * Victims on one node (upstream's SelectVictimsOnNode), or why the node is no candidate: it has no lower-priority
   * pod, or the status the filters give with every one of them gone (its reasons then count in the message).
   */
  const selectVictims = (state: CycleState, pod: Pod, node: NodeInfo, budgets: Map<string, number>): Candidate | Status => {
    const fw = handle.framework();
    const ni = node.clone();
    const st = state.clone();
    const prio = podPriority(pod);
    const lower = [...ni.pods.values()].map((pi) => pi.pod).filter((p) => podPriority(p) < prio);
    if (!lower.length) return unresolvable('No preemption victims found for incoming pod');
    const remove = (p: Pod): void => { ni.removePod(p); fw.runPreFilterExtensionRemovePod(st, pod, p, ni); };
    const add = (p: Pod): void => { ni.addPod(p); fw.runPreFilterExtensionAddPod(st, pod, p, ni); };
    for (const p of lower) remove(p);
    const nominated = handle.nominatedPods(node.name).filter((n) => podKey(n) !== podKey(pod) && podPriority(n) >= prio);
    const unfit = fw.runFilterWithNominatedPods(st, pod, ni, nominated);
    if (unfit) return unfit;
    // Reprieve as many as possible, highest priority first, PDB-protected ones before the others.
    lower.sort((a, b) => podPriority(b) - podPriority(a) || startTime(a) - startTime(b));
    const left = new Map(budgets);
    const violating: Pod[] = [];
    const fine: Pod[] = [];
    for (const p of lower) {
      const covering = pdbsFor(p);
      let violates = false;
      for (const pdb of covering) {
        const k = `${pdb.metadata?.namespace}/${pdb.metadata?.name}`;
        const allowed = (left.get(k) ?? pdb.status?.disruptionsAllowed ?? 0) - 1;
        left.set(k, allowed);
        if (allowed < 0) violates = true;
      }
      (violates ? violating : fine).push(p);
    }
    const victims: Pod[] = [];
    let pdbViolations = 0;
    const reprieve = (p: Pod, isViolating: boolean): void => {
      add(p);
      if (fw.runFilterWithNominatedPods(st, pod, ni, nominated)) {
        remove(p);
        victims.push(p);
        if (isViolating) pdbViolations++;
      }
    };
    for (const p of violating) reprieve(p, true);
    for (const p of fine) reprieve(p, false);
    return victims.length ? { node, victims, pdbViolations } : errorStatus(`expected at least one victim pod on node "${node.name}"`);
  };

  /** upstream's pickOneNodeForPreemption order. */
  const better = (a: Candidate, b: Candidate): boolean => {
    if (a.pdbViolations !== b.pdbViolations) return a.pdbViolations < b.pdbViolations;
    const highest = (c: Candidate): number => Math.max(...c.victims.map(podPriority));
    if (highest(a) !== highest(b)) return highest(a) < highest(b);
    const sum = (c: Candidate): number => c.victims.reduce((s, v) => s + podPriority(v) + 2 ** 31 + 1, 0);
    if (sum(a) !== sum(b)) return sum(a) < sum(b);
    if (a.victims.length !== b.victims.length) return a.victims.length < b.victims.length;
    const earliest = (c: Candidate): number => Math.min(...c.victims.filter((v) => podPriority(v) === highest(c)).map(startTime));
    return earliest(a) > earliest(b);
  };

  const eligible = (pod: Pod): string | undefined => {
    if (pod.spec?.preemptionPolicy === 'Never') return 'not eligible due to preemptionPolicy=Never.';
    const nominated = pod.status?.nominatedNodeName as string | undefined;
    if (nominated) {
      const ni = handle.cache.nodeInfo(nominated);
      const prio = podPriority(pod);
      if (ni && [...ni.pods.values()].some((pi) => pi.pod.metadata?.deletionTimestamp && podPriority(pi.pod) < prio)) {
        return 'not eligible due to a terminating pod on the nominated node.';
      }
    }
    return undefined;
  };

  const execute = async (pod: Pod, c: Candidate): Promise<void> => {
    const node = c.node.name;
    // Lower-priority pods nominated to this node lose their nomination.
    for (const n of handle.nominatedPods(node)) {
      if (podPriority(n) >= podPriority(pod) || podKey(n) === podKey(pod)) continue;
      await handle.client.pods(n.metadata?.namespace).patch(n.metadata!.name!, 'merge', { status: { nominatedNodeName: null } }, { subresource: 'status' }).catch(() => undefined);
    }
    await Promise.all(c.victims.map(async (v) => {
      const pods = handle.client.pods(v.metadata?.namespace);
      const now = formatTime(handle.now());
      await pods.patch(v.metadata!.name!, 'strategic', {
        status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: `${handle.framework().profileName}: preempting to accommodate a higher priority pod`, lastTransitionTime: now }] },
      }, { subresource: 'status' }).catch(() => undefined);
      try {
        await pods.delete(v.metadata!.name!, { preconditions: { uid: v.metadata?.uid } });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      handle.recordEvent(v, pod, 'Normal', 'Preempted', 'Preempting', `Preempted by pod ${pod.metadata?.uid} on node ${node}`);
    }));
  };

  /** Upstream's callExtenders: each interested extender with a preemptVerb may drop candidate nodes or change victims. */
  const withExtenders = async (pod: Pod, candidates: Candidate[]): Promise<Candidate[]> => {
    let victims = new Map(candidates.map((c) => [c.node.name, { pods: c.victims, numPDBViolations: c.pdbViolations }]));
    for (const e of handle.extenders) {
      if (!victims.size) break;
      if (!e.supportsPreemption || !e.isInterested(pod)) continue;
      let out;
      try {
        out = await e.processPreemption(pod, victims, (n) => handle.cache.nodeInfo(n));
        for (const [n, v] of out) if (!v.pods.length) throw new Error(`expected at least one victim pod on node "${n}"`);
      } catch (err) {
        if (e.ignorable) continue;
        throw err;
      }
      victims = out;
    }
    const out: Candidate[] = [];
    for (const [n, v] of victims) {
      const node = handle.cache.nodeInfo(n);
      if (node) out.push({ node, victims: v.pods, pdbViolations: v.numPDBViolations });
    }
    return out;
  };

  /** Upstream's Preempt: eligibility, candidates, extenders, the best candidate's victims evicted. */
  const preempt = async (state: CycleState, pod: Pod, statuses: Map<string, Status>): Promise<{ status: Status | null; nominatedNodeName?: string }> => {
    const notEligible = eligible(pod);
    if (notEligible) return { status: unschedulable(`preemption: ${notEligible}`) };
    const all = handle.cache.nodeInfos();
    const reasons: Status[] = [];
    const potential: NodeInfo[] = [];
    for (const ni of all) {
      const s = statuses.get(ni.name);
      if (s?.code === Code.UnschedulableAndUnresolvable) reasons.push(status(Code.Unschedulable, 'Preemption is not helpful for scheduling'));
      else potential.push(ni);
    }
    const budgets = new Map<string, number>();
    const wanted = Math.max(minCandidateAbs, Math.floor((potential.length * minCandidatePct) / 100));
    const candidates: Candidate[] = [];
    for (const ni of potential) {
      if (candidates.length >= wanted) break;
      const c = selectVictims(state, pod, ni, budgets);
      if ('victims' in c) candidates.push(c);
      else reasons.push(c);
    }
    if (!candidates.length) {
      return { status: unschedulable(`preemption: 0/${all.length} nodes are available: ${reasonHistogram(reasons).join(', ')}.`) };
    }
    try {
      const kept = handle.extenders.length ? await withExtenders(pod, candidates) : candidates;
      if (!kept.length) return { status: unschedulable('no candidate node for preemption') };
      let best = kept[0]!;
      for (const c of kept.slice(1)) if (better(c, best)) best = c;
      await execute(pod, best);
      handle.metrics.victims(best.victims.length);
      return { status: null, nominatedNodeName: best.node.name };
    } catch (e) {
      return { status: { code: Code.Error, reasons: [`preemption: ${(e as Error).message}`] } };
    }
  };

  return {
    name: 'DefaultPreemption',
    postFilter: async (state, pod, statuses) => {
      try {
        return await preempt(state, pod, statuses);
      } finally {
        // every PostFilter run is an attempt, eligible or not, as upstream counts them
        handle.metrics.attempt();
      }
    },
  };
};
