// additionalPrinterColumns as a Table printer (upstream: registry/customresource/tableconvertor): Name first,
// then each column's JSONPath value typed by its column type; dates as ages. Without columns: Name and Age.
import type { CustomResourceColumnDefinition } from '../../../api/apiextensions/v1/index.js';
import { humanDuration, type Printer, type TableColumnDefinition } from '../printers/index.js';
import { parseJsonPath, printJsonPathValue } from './jsonpath.js';

const AGE: CustomResourceColumnDefinition = {
  name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
};

/** upstream's cellForJSONValue, and for string columns client-go's printing of the value. */
function cell(type: string, value: unknown, now: Date): unknown {
  if (type === 'string') return printJsonPathValue(value);
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) return '<invalid>';
      return humanDuration(now.getTime() - ms);
    }
    default:
      return null;
  }
}

/** The columns whose path parses: upstream's table convertor stops at the first that does not (logged, not refused). */
function parsedColumns(columns: CustomResourceColumnDefinition[]): CustomResourceColumnDefinition[] {
  const out: CustomResourceColumnDefinition[] = [];
  for (const c of columns) {
    try {
      parseJsonPath(`{${c.jsonPath}}`);
    } catch {
      break;
    }
    out.push(c);
  }
  return out;
}

export function customResourcePrinter(columns: CustomResourceColumnDefinition[] | undefined): Printer {
  const cols = columns?.length ? parsedColumns(columns) : [AGE];
  const defs: TableColumnDefinition[] = [
    { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names', priority: 0 },
    ...cols.map((c) => ({
      name: c.name, type: c.type, format: c.format ?? '', priority: c.priority ?? 0,
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    })),
  ];
  return {
    columns: defs,
    cells: (obj, now) => [obj.metadata?.name ?? '', ...cols.map((c) => {
      let results: unknown[][];
      try {
        results = parseJsonPath(`{${c.jsonPath}}`).findResults(obj);
      } catch {
        return null;
      }
      // as upstream, only the first value of the first action
      return results[0]?.length ? cell(c.type, results[0][0], now) : null;
    })],
  };
}
