import { isCelError, type CelInput } from '@bufbuild/cel';
import { describe, expect, it } from 'vitest';
import { compile, evaluate } from './env.js';

const run = (expr: string, bindings: Record<string, CelInput> = {}): unknown => {
  const { result } = evaluate(compile(expr).program, bindings);
  if (result instanceof Error) return `error: ${result.message}`;
  if (isCelError(result)) return `error: ${result.message}`;
  return result;
};

describe('the Kubernetes CEL environment', () => {
  it('has the list library and sets', () => {
    expect(run('[1, 2, 3].isSorted() && ![2, 1].isSorted()')).toBe(true);
    expect(run('[1, 2, 3].sum()')).toBe(6n);
    expect(run('[1.5, 2.5].sum()')).toBe(4);
    expect(run('[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3')).toBe(true);
    expect(run('[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1')).toBe(true);
    expect(run('[].min()')).toBe('error: min called on empty list');
    expect(run('sets.contains([1, 2, 3], [2]) && sets.equivalent([1, 2], [2, 1, 1]) && !sets.intersects([1], [2])')).toBe(true);
  });

  it('converts strings as cel-go does, with Go\'s strconv rather than JavaScript\'s Number and BigInt', () => {
    expect(run("int('-42') == -42 && int('+7') == 7 && uint('18446744073709551615') == 18446744073709551615u")).toBe(true);
    for (const bad of ["int(' 5')", "int('0x10')", "int('1e3')", "int('9223372036854775808')", "int('')"]) expect(run(bad), bad).toBe("error: type conversion error from 'string' to 'int'");
    for (const bad of ["uint('-0')", "uint('+1')", "uint('18446744073709551616')"]) expect(run(bad), bad).toBe("error: type conversion error from 'string' to 'uint'");
    expect(run("double('1.5e3') == 1500.0 && double('.5') == 0.5 && double('0x1p-2') == 0.25 && double('-Infinity') < 0.0 && double('inf') > 1e308")).toBe(true);
    expect(run("double('NaN') != double('NaN')")).toBe(true);
    for (const bad of ["double('abc')", "double(' 1')", "double('1e400')", "double('')", "double('0x10')"]) expect(run(bad), bad).toBe("error: type conversion error from 'string' to 'double'");
    expect(run("bool('T') && bool('1') && !bool('F') && !bool('False')")).toBe(true);
    expect(run("bool('yes')")).toBe("error: type conversion error from 'string' to 'bool'");
    // and back, as Go's strconv and time write them
    expect(run("string(1000000.0) + ' ' + string(123456.5) + ' ' + string(0.0001) + ' ' + string(0.00001) + ' ' + string(-2.5e-7) + ' ' + string(double('inf'))"))
      .toBe('1e+06 123456.5 0.0001 1e-05 -2.5e-07 +Inf');
    expect(run("string(duration('-1.5s')) + ' ' + string(duration('90m')) + ' ' + string(duration('0s')) + ' ' + string(duration('1ms'))")).toBe('-1.5s 5400s 0s 0.001s');
    expect(run("string(timestamp('2026-01-02T03:04:05.500Z')) + ' ' + string(timestamp('2026-01-02T03:04:05Z'))")).toBe('2026-01-02T03:04:05.5Z 2026-01-02T03:04:05Z');
    // the other overloads are the standard ones still
    expect(run("int(2.9) == 2 && double(3) == 3.0 && uint(5) == 5u && bool(true)")).toBe(true);
  });

  it('has regex, strings and quote', () => {
    expect(run('"abc 123 def 456".find("[0-9]+")')).toBe('123');
    expect(run('"abc 123 def 456".findAll("[0-9]+")')).toMatchObject({ size: 2 });
    expect(run('"abc 123 def 456".findAll("[0-9]+", 1) == ["123"]')).toBe(true);
    expect(run('"Hello".lowerAscii() + "x".upperAscii() + " a ".trim() + "abc".substring(1) + "a,b".split(",")[1]')).toBe('helloXabcb');
    expect(run('strings.quote("a\\"b")')).toBe('"a\\"b"');
  });

  it('has urls', () => {
    expect(run('url("https://user@example.com:8080/a%20b?x=1&x=2").getHost()')).toBe('example.com:8080');
    expect(run('url("https://[::1]:80/").getHostname()')).toBe('::1');
    expect(run('url("https://example.com:8080/p").getPort() == "8080" && url("https://example.com").getScheme() == "https"')).toBe(true);
    expect(run('url("https://example.com/p?x=1&x=2").getQuery()["x"] == ["1", "2"]')).toBe(true);
    expect(run('url("/absolute/path").getEscapedPath()')).toBe('/absolute/path');
    expect(run('isURL("not a url") || isURL("relative/path")')).toBe(false);
  });

  it('has quantities compared by value', () => {
    expect(run('quantity("1Ki") == quantity("1024")')).toBe(true);
    expect(run('quantity("500m").isLessThan(quantity("1")) && quantity("2").compareTo(quantity("1")) == 1')).toBe(true);
    expect(run('quantity("1.5").isInteger() || !quantity("3").isInteger()')).toBe(false);
    expect(run('quantity("2Gi").add(quantity("1Gi")).asInteger() == 3 * 1024 * 1024 * 1024 && quantity("5").sub(2).asApproximateFloat() == 3.0')).toBe(true);
    expect(run('isQuantity("1Q")')).toBe(false);
    expect(run('quantity("1.5").asInteger()')).toBe('error: cannot convert value to integer');
  });

  it('has ip and cidr', () => {
    expect(run('ip("192.168.0.1").family() == 4 && ip("::1").isLoopback() && ip("fe80::1").isLinkLocalUnicast()')).toBe(true);
    expect(run('string(ip("2001:DB8:0:0:0:0:0:1"))')).toBe('2001:db8::1');
    expect(run('ip.isCanonical("2001:db8::1") && !ip.isCanonical("2001:DB8::1")')).toBe(true);
    expect(run('isIP("::ffff:1.2.3.4") || isIP("1.2.3.4%eth0") || isIP("01.2.3.4")')).toBe(false);
    expect(run('cidr("10.0.0.0/8").containsIP("10.1.2.3") && !cidr("10.0.0.0/8").containsIP(ip("11.0.0.1"))')).toBe(true);
    expect(run('cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16") && !cidr("10.1.0.0/16").containsCIDR(cidr("10.0.0.0/8"))')).toBe(true);
    expect(run('string(cidr("10.1.2.3/8").masked()) == "10.0.0.0/8" && cidr("10.1.2.3/8").prefixLength() == 8 && cidr("10.1.2.3/8").ip() == ip("10.1.2.3")')).toBe(true);
    expect(run('ip("x")')).toMatch(/^error: IP Address "x" parse error during conversion from string/);
  });

  it('has named formats returning optional errors', () => {
    expect(run('format.dns1123Label().validate("ok-name").hasValue()')).toBe(false);
    expect(run('format.named("dns1123Label").value().validate("Not_OK").value().size() > 0')).toBe(true);
    expect(run('format.named("nope").hasValue()')).toBe(false);
    expect(run('format.named("constructor").hasValue()')).toBe(false);
    expect(run('optional.none().orValue(3) == 3 && optional.of(1).value() == 1 && !optional.ofNonZeroValue("").hasValue()')).toBe(true);
  });

  it('has the optional syntax: .?f, [?k], selects inside an optional, [?x] and {?k: v}', () => {
    const self = new Map<string, CelInput>([['spec', new Map<string, CelInput>([['replicas', 3n], ['tags', ['a', 'b']], ['m', new Map([['k', 'v']])]])]]);
    expect(run('self.?spec.?replicas.orValue(1) == 3 && self.?spec.?missing.orValue(7) == 7', { self })).toBe(true);
    expect(run('self.?nope.replicas.orValue(9) == 9 && self.?spec.replicas.value() == 3', { self })).toBe(true);
    expect(run('self.spec.?tags[1].orValue("z") == "b" && self.spec.tags[?5].orValue("z") == "z"', { self })).toBe(true);
    expect(run('self.spec.m[?"k"].hasValue() && !self.spec.m[?"x"].hasValue()', { self })).toBe(true);
    expect(run('[1, ?self.?spec.?missing, ?optional.of(3)] == [1, 3]', { self })).toBe(true);
    expect(run('{"a": 1, ?"b": self.?spec.?replicas, ?"c": optional.none()} == {"a": 1, "b": 3}', { self })).toBe(true);
    expect(run('self.?spec.replicas.missing.hasValue()', { self })).toBe('error: no such overload: optional access on bigint');
    expect(run('self.spec.replicas > 2 ? "?." : r"[?"', { self })).toBe('?.');
  });

  it('has two-variable comprehensions', () => {
    expect(run('[1, 2, 3].all(i, v, v == i + 1) && !["a", "b"].exists(i, v, i == 1 && v == "a")')).toBe(true);
    expect(run('{"a": 1, "b": 2}.exists(k, v, k == "b" && v == 2) && {"a": 1, "b": 1}.existsOne(k, v, k == "a")')).toBe(true);
    expect(run('[10, 20, 30].transformList(i, v, i * 100 + v) == [10, 120, 230]')).toBe(true);
    expect(run('[10, 20, 30].transformList(i, v, i > 0, v) == [20, 30]')).toBe(true);
    expect(run('{"a": 1, "b": 2}.transformMap(k, v, v * 10) == {"a": 10, "b": 20}')).toBe(true);
    expect(run('{"a": 1, "b": 2}.transformMap(k, v, v > 1, k + "!") == {"b": "b!"}')).toBe(true);
    expect(run('{"a": 1}.transformMapEntry(k, v, {k + k: v}) == {"aa": 1}')).toBe(true);
    expect(run('self.all(i, v, self.all(j, w, i == j || v != w))', { self: [1n, 2n, 3n] })).toBe(true);
    expect(run('[[1, 2], [3]].all(i, v, v.all(j, w, w > i))')).toBe(true);
  });

  it("words evaluation errors as cel-go does (a rule's error shows them)", () => {
    const self = new Map<string, CelInput>([['l', [1n]], ['zero', 0n], ['max', 9223372036854775807n]]);
    expect(run('1 / self.zero == 1', { self })).toBe('error: division by zero');
    expect(run('1 % self.zero == 1', { self })).toBe('error: modulus by zero');
    expect(run('self.max + 1 > 0', { self })).toBe('error: integer overflow');
    expect(run('uint(-1 - self.zero) > 0u', { self })).toBe('error: unsigned integer overflow');
    expect(run('self.l[4] == 1', { self })).toBe('error: index out of bounds: 4');
    expect(run('self.missing == 1', { self })).toBe('error: no such key: missing');
  });

  it('counts the cost of an evaluation', () => {
    const small = evaluate(compile('self.all(x, x > 0)').program, { self: [1n, 2n] }).cost;
    const large = evaluate(compile('self.all(x, x > 0)').program, { self: Array.from({ length: 100 }, () => 1n) }).cost;
    expect(large).toBeGreaterThan(small * 10);
  });
});
