// The parameters upstream's generator attaches to each kind of operation. kubectl reads them: it decides that
// the server validates fields itself by finding `fieldValidation` among a PATCH operation's parameters.

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  description: string;
  required?: boolean;
  schema: { type: 'string' | 'boolean' | 'integer'; uniqueItems: true };
}

const q = (name: string, type: Parameter['schema']['type'], description: string): Parameter =>
  ({ name, in: 'query', description, schema: { type, uniqueItems: true } });

const P = {
  allowWatchBookmarks: q('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion.'),
  continue: q('continue', 'string', 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue).'),
  dryRun: q('dryRun', 'string', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters.'),
  fieldManagerPatch: q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).'),
  fieldSelector: q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  fieldValidation: q('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: unknown fields are silently dropped - Warn: a warning is sent for each unknown or duplicate field (the default) - Strict: the request fails with a BadRequest error listing every unknown and duplicate field.'),
  force: q('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'),
  gracePeriodSeconds: q('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used.'),
  labelSelector: q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: q('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.'),
  orphanDependents: q('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned.'),
  pretty: q('pretty', 'string', 'If \'true\', then the output is pretty printed. Defaults to \'false\' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).'),
  propagationPolicy: q('propagationPolicy', 'string', 'Whether and how garbage collection will be performed. Acceptable values are: \'Orphan\' - orphan the dependents; \'Background\' - allow the garbage collector to delete the dependents in the background; \'Foreground\' - a cascading policy that deletes all dependents in the foreground.'),
  resourceVersion: q('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set.\n\nDefaults to unset'),
  sendInitialEvents: q('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection, followed by a "Bookmark" event annotated with "k8s.io/initial-events-end": "true".'),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  watch: q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
} as const;

export const pathParam = (name: string, description: string): Parameter =>
  ({ name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } });

export const namespaceParam = pathParam('namespace', 'object name and auth scope, such as for teams and projects');
export const prettyParam = P.pretty;

const byName = (ps: Parameter[]): Parameter[] => [...ps].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const LIST = [P.allowWatchBookmarks, P.continue, P.fieldSelector, P.labelSelector, P.limit, P.resourceVersion,
  P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds, P.watch];
const WRITE = [P.dryRun, P.fieldManager, P.fieldValidation];
const DELETE = [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy];

/** Query parameters by operation, sorted by name as upstream lists them. */
export const QUERY = {
  list: byName(LIST),
  create: byName(WRITE),
  replace: byName(WRITE),
  patch: byName([P.dryRun, P.fieldManagerPatch, P.fieldValidation, P.force]),
  delete: byName(DELETE),
  deletecollection: byName([...DELETE, P.continue, P.fieldSelector, P.labelSelector, P.limit, P.resourceVersion,
    P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds]),
} as const;

/** Path-level parameters: the path's own, then pretty (and on watch / all-namespace lists, every list parameter). */
export const pathLevel = (own: Parameter[], withList = false): Parameter[] =>
  byName([...own, P.pretty, ...(withList ? LIST : [])]);

/** Query parameters from a table of name → [type, description], sorted by name. */
const queries = (table: Record<string, [Parameter['schema']['type'], string]>): Parameter[] =>
  byName(Object.entries(table).map(([name, [type, description]]) => q(name, type, description)));

/** Query parameters of the non-CRUD subresources (pods/log, pods/exec, ...), keyed by subresource. */
export const SUBRESOURCE_QUERY: Record<string, Parameter[]> = {
  log: queries({
    container: ['string', 'The container for which to stream logs. Defaults to only container if there is one container in the pod.'],
    follow: ['boolean', 'Follow the log stream of the pod. Defaults to false.'],
    insecureSkipTLSVerifyBackend: ['boolean', 'insecureSkipTLSVerifyBackend indicates that the apiserver should not confirm the validity of the serving certificate of the backend it is connecting to.'],
    limitBytes: ['integer', 'If set, the number of bytes to read from the server before terminating the log output.'],
    previous: ['boolean', 'Return previous terminated container logs. Defaults to false.'],
    sinceSeconds: ['integer', 'A relative time in seconds before the current time from which to show logs.'],
    tailLines: ['integer', 'If set, the number of lines from the end of the logs to show.'],
    timestamps: ['boolean', 'If true, add an RFC3339 or RFC3339Nano timestamp at the beginning of every line of log output. Defaults to false.'],
  }),
  exec: queries({
    command: ['string', 'Command is the remote command to execute. argv array. Not executed within a shell.'],
    container: ['string', 'Container in which to execute the command. Defaults to only container if there is only one container in the pod.'],
    stderr: ['boolean', 'Redirect the standard error stream of the pod for this call.'],
    stdin: ['boolean', 'Redirect the standard input stream of the pod for this call. Defaults to false.'],
    stdout: ['boolean', 'Redirect the standard output stream of the pod for this call.'],
    tty: ['boolean', 'TTY if true indicates that a tty will be allocated for the exec call. Defaults to false.'],
  }),
  attach: queries({
    container: ['string', 'The container in which to execute the command. Defaults to only container if there is only one container in the pod.'],
    stderr: ['boolean', 'Stderr if true indicates that stderr is to be redirected for the attach call. Defaults to true.'],
    stdin: ['boolean', 'Stdin if true, redirects the standard input stream of the pod for this call. Defaults to false.'],
    stdout: ['boolean', 'Stdout if true indicates that stdout is to be redirected for the attach call. Defaults to true.'],
    tty: ['boolean', 'TTY if true indicates that a tty will be allocated for the attach call. Defaults to false.'],
  }),
  portforward: queries({ ports: ['integer', 'List of ports to forward Required when using WebSockets'] }),
  proxy: queries({ path: ['string', 'Path is the URL path to use for the current proxy request to pod.'] }),
};
