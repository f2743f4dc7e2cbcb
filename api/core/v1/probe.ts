// Probes and lifecycle hooks of containers.
import { arr, enumStr, int32, int64, obj, ref, str, type Definitions } from '../../schema.js';
import { INT_OR_STRING, core } from './names.js';

export const probeDefinitions: Definitions = {
  [core('Probe')]: obj({
    exec: ref(core('ExecAction'), 'Command to run.'),
    failureThreshold: int32('Consecutive failures after which the probe counts as failed.', { default: 3 }),
    grpc: ref(core('GRPCAction'), 'gRPC health check to make.'),
    httpGet: ref(core('HTTPGetAction'), 'HTTP request to make.'),
    initialDelaySeconds: int32('Seconds after container start before probing begins.'),
    periodSeconds: int32('Seconds between probes.', { default: 10 }),
    successThreshold: int32('Consecutive successes after a failure for the probe to count as succeeded.', { default: 1 }),
    tcpSocket: ref(core('TCPSocketAction'), 'TCP port to connect to.'),
    terminationGracePeriodSeconds: int64("Grace period for the pod when this probe fails; the pod's value if unset."),
    timeoutSeconds: int32('Seconds after which the probe times out.', { default: 1 }),
  }, 'A health check run against a container.'),
  [core('ExecAction')]: obj({
    command: arr(str(), 'Command line to run in the container, in / and not in a shell; exit 0 is success.'),
  }, 'Runs a command in the container.'),
  [core('HTTPGetAction')]: obj({
    host: str('Host name to connect to; the pod IP if unset.'),
    httpHeaders: arr(ref(core('HTTPHeader')), 'Custom headers of the request.'),
    path: str('Path of the request.', { default: '/' }),
    port: ref(INT_OR_STRING, 'Number or name of the container port.'),
    scheme: enumStr(['HTTP', 'HTTPS'], 'Scheme of the request: HTTP or HTTPS.', { default: 'HTTP' }),
  }, 'An HTTP GET request.', { required: ['port'] }),
  [core('HTTPHeader')]: obj({
    name: str('Header field name, canonicalized on output.'),
    value: str('Header field value.'),
  }, 'A custom HTTP header.', { required: ['name', 'value'] }),
  [core('TCPSocketAction')]: obj({
    host: str('Host name to connect to; the pod IP if unset.'),
    port: ref(INT_OR_STRING, 'Number or name of the container port.'),
  }, 'Opens a TCP connection.', { required: ['port'] }),
  [core('GRPCAction')]: obj({
    port: int32('Port of the gRPC service, 1 to 65535.'),
    service: str('Service name put in the gRPC HealthCheckRequest.', { default: '' }),
  }, 'A gRPC health check.', { required: ['port'] }),
  [core('SleepAction')]: obj({
    seconds: int64('Seconds to sleep.'),
  }, 'Sleeps for a while.', { required: ['seconds'] }),
  [core('Lifecycle')]: obj({
    postStart: ref(core('LifecycleHandler'), 'Called right after the container is created; the container restarts if it fails.'),
    preStop: ref(core('LifecycleHandler'), 'Called before the container is terminated; blocks termination until it ends or the grace period runs out.'),
  }, 'Actions the system takes on container lifecycle events.'),
  [core('LifecycleHandler')]: obj({
    exec: ref(core('ExecAction'), 'Command to run.'),
    httpGet: ref(core('HTTPGetAction'), 'HTTP request to make.'),
    sleep: ref(core('SleepAction'), 'Time to sleep.'),
    tcpSocket: ref(core('TCPSocketAction'), 'Deprecated TCP check, kept for compatibility and not supported.'),
  }, 'One action to take on a lifecycle event; exactly one member is set.'),
};
