// Objects the kubectl tests start from; a test that needs more appends to the last list (the containers).

/** Deployment web: two replicas of one nginx container. */
export const WEB_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports: [{containerPort: 80}]
`;

/** Pod p1: one busybox container. */
export const P1_POD = `apiVersion: v1
kind: Pod
metadata: {name: p1, labels: {app: p}}
spec:
  containers:
  - name: c
    image: busybox:1.36
`;
