// Role bindings and cluster role bindings: ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS.
// Roles and cluster roles have no printer upstream and get the default table.
import { ageColumn, column, nameColumn, type Printer, wideColumn } from './types.js';
import { age } from './duration.js';

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

/** rbac.SubjectsStrings: user names, group names and "namespace/name" of service accounts. */
export function subjectsStrings(subjects: Subject[] | undefined): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
    else if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

export const roleBindingPrinter: Printer = {
  columns: [
    nameColumn,
    column('Role', 'The role the binding grants, as Kind/name.'),
    ageColumn,
    wideColumn('Users', 'The users the binding grants the role to.'),
    wideColumn('Groups', 'The groups the binding grants the role to.'),
    wideColumn('ServiceAccounts', 'The service accounts the binding grants the role to.'),
  ],
  cells: (rb, now) => [
    rb.metadata?.name ?? '',
    `${rb.roleRef?.kind ?? ''}/${rb.roleRef?.name ?? ''}`,
    age(rb, now),
    ...subjectsStrings(rb.subjects),
  ],
};
