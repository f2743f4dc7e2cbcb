// Steps on every request's path (admission, authorization, an update's computation) mostly answer at once: they
// return a value, and a promise only when they have to wait, so that no promise is made and awaited for nothing.

/** `f` of what `v` is, or of what it resolves to when it is a promise. */
export const andThen = <T, U>(v: T | Promise<T>, f: (value: T) => U | Promise<U>): U | Promise<U> =>
  (v instanceof Promise ? v.then(f) : f(v));
