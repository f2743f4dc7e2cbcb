// The Deployment bodies of upstream's field validation test (test/integration/apiserver/field_validation_test.go),
// laid out line for line as there, since the errors about YAML name their lines: repeated, unknown and nested
// unknown fields.

/** A Deployment body in upstream's layout, with these lines in its metadata, its spec and its one container. */
function deploymentJson(meta: string[], spec: string[], container: string[]): string {
  const at = (depth: number, lines: string[]): string[] => lines.map((l) => `${'\t'.repeat(depth)}${l}`);
  return [
    '{',
    ...at(1, ['"apiVersion": "apps/v1",', '"kind": "Deployment",', '"metadata": {']),
    ...at(2, meta),
    ...at(1, ['},', '"spec": {']),
    ...at(2, spec),
    ...at(2, ['"selector": {', '\t"matchLabels": {', '\t\t"app": "nginx"', '\t}', '},']),
    ...at(2, ['"template": {', '\t"metadata": {', '\t\t"labels": {', '\t\t\t"app": "nginx"', '\t\t}', '\t},', '\t"spec": {', '\t\t"containers": [{']),
    ...at(5, ['"name":  "nginx",', '"image": "nginx:latest",', ...container]),
    ...at(4, ['}]']),
    ...at(3, ['}']),
    ...at(2, ['}']),
    ...at(1, ['}']),
    '}',
  ].join('\n');
}

/** Upstream's invalidBodyJSON: metadata.name and spec.paused repeated, unknown fields, unknownDupe both. */
export const invalidDeploymentJson = (name: string): string => deploymentJson(
  ['"name": "dupename",', `"name": "${name}",`, '"labels": {"app": "nginx"},', '"unknownMeta": "metaVal"'],
  ['"unknown1": "val1",', '"unknownDupe": "valDupe",', '"unknownDupe": "valDupe2",', '"paused": true,', '"paused": false,'],
  ['"unknownNested": "val1",', '"imagePullPolicy": "Always",', '"imagePullPolicy": "Never"'],
);

/** Upstream's applyInvalidBody (sent as application/apply-patch+yaml): spec.paused repeated on line 10, imagePullPolicy on 27. */
export const applyInvalidDeployment = (name: string): string => deploymentJson(
  [`"name": "${name}",`, '"labels": {"app": "nginx"}'],
  ['"paused": false,', '"paused": true,'],
  ['"imagePullPolicy": "Never",', '"imagePullPolicy": "Always"'],
);

/** Upstream's invalidBodyYAML: the repetitions on lines 5, 12, 14 and 28. */
export const invalidDeploymentYaml = (name: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: ${name}
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;
