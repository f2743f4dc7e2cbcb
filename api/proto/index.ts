// Protobuf field numbers of every built-in message we serve, keyed by definition name, so that
// `application/vnd.kubernetes.protobuf` bodies can be read with our own schemas for the types.
//
// The tables hold facts only: field numbers and JSON names as upstream's generated.proto files and
// the json tags of its types.go files (k8s.io/api and k8s.io/apimachinery v0.32) define them, plus
// which scalar fields keep a zero value (see ./types.ts). They were produced by a throwaway script;
// `api/proto/proto.test.ts` checks every name against `allDefinitions` (tables of kinds not served
// yet are kept for when they are). Scalar-like messages with
// their own encoding (Time, MicroTime, Duration, Quantity, IntOrString, RawExtension, FieldsV1) are
// not here; pkg/apimachinery/protobuf knows them by name.
import { admissionregistrationV1 } from './admissionregistration-v1.js';
import { apiextensionsV1 } from './apiextensions-v1.js';
import { apiregistrationV1 } from './apiregistration-v1.js';
import { appsV1 } from './apps-v1.js';
import { authenticationV1 } from './authentication-v1.js';
import { authorizationV1 } from './authorization-v1.js';
import { autoscalingV1 } from './autoscaling-v1.js';
import { autoscalingV2 } from './autoscaling-v2.js';
import { batchV1 } from './batch-v1.js';
import { certificatesV1 } from './certificates-v1.js';
import { coordinationV1 } from './coordination-v1.js';
import { coreV1 } from './core-v1.js';
import { discoveryV1 } from './discovery-v1.js';
import { eventsV1 } from './events-v1.js';
import { metaV1 } from './meta-v1.js';
import { networkingV1 } from './networking-v1.js';
import { nodeV1 } from './node-v1.js';
import { flowcontrolV1 } from './flowcontrol-v1.js';
import { policyV1 } from './policy-v1.js';
import { policyV1beta1 } from './policy-v1beta1.js';
import { rbacV1 } from './rbac-v1.js';
import { schedulingV1 } from './scheduling-v1.js';
import { storageV1 } from './storage-v1.js';
import type { ProtoFields } from './types.js';

export type { ProtoField, ProtoFields, ProtoMessage } from './types.js';

export const protoFields: ProtoFields = {
  ...metaV1, ...coreV1, ...appsV1, ...batchV1, ...coordinationV1, ...eventsV1, ...rbacV1, ...discoveryV1,
  ...schedulingV1, ...nodeV1, ...flowcontrolV1, ...policyV1, ...policyV1beta1, ...networkingV1, ...storageV1, ...autoscalingV1, ...autoscalingV2, ...certificatesV1, ...authenticationV1, ...authorizationV1,
  ...admissionregistrationV1, ...apiextensionsV1, ...apiregistrationV1,
};
