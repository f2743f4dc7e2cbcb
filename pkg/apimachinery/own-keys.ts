// A key a client sends is data, whatever its name: "__proto__" read from or assigned to a plain object would
// reach its prototype (and through a merge, Object.prototype itself). Code that merges client objects key by key
// reads and writes through these.
//
//   getOwn(obj, key): unknown             // obj's own value, never an inherited one
//   setOwn(obj, key, value): void          // an own data property, "__proto__" included

type Obj = Record<string, unknown>;

export const getOwn = (obj: Obj, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);

export const setOwn = (obj: Obj, key: string, value: unknown): void => {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
};
