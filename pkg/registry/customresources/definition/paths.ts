// Field paths as upstream's field.Path prints them: Child "a.b", Key "a[k]" (unquoted), Index "a[0]".
export const keyPath = (base: string, key: string): string => `${base}[${key}]`;
