// The authorizer library's state that lives outside CEL: an admission request's known decisions and pending
// questions, and the session of the evaluation running now. Apart from library/authz.ts so that admission can make
// sessions without loading the CEL runtime.

export interface Subject {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** One SubjectAccessReview: a non-resource path, or a resource request. */
export interface AccessQuestion {
  user: Subject;
  verb: string;
  path?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Selectors the resource check is narrowed by, as written (the authorizers parse them). */
  fieldSelector?: string;
  labelSelector?: string;
}

export interface AccessAnswer {
  allowed: boolean;
  reason: string;
  error?: string;
}

/** The decisions known to one admission request's evaluations, and the questions they are waiting on. */
export class AuthorizationSession {
  readonly decisions = new Map<string, AccessAnswer>();
  readonly pending = new Map<string, AccessQuestion>();

  /** Answers every pending question with `review`. */
  async answer(review: (q: AccessQuestion) => Promise<AccessAnswer>): Promise<void> {
    const questions = [...this.pending];
    this.pending.clear();
    await Promise.all(questions.map(async ([key, q]) => { this.decisions.set(key, await review(q)); }));
  }
}

let session: AuthorizationSession | undefined;

/** The session of the evaluation running now (the authorizer library's checks read it). */
export const currentSession = (): AuthorizationSession | undefined => session;

/** Runs `f` (synchronous evaluations) with `s` answering the authorizer's checks. */
export function withAuthorization<T>(s: AuthorizationSession, f: () => T): T {
  session = s;
  try {
    return f();
  } finally {
    session = undefined;
  }
}

/** Thrown by a check whose decision is pending; the evaluation's result is then thrown away. */
export const DECISION_PENDING = 'authorization decision pending';
