// A controller-runtime operator for a Widget custom resource, run against mini-kube: leader election on a Lease,
// full and metadata-only informers, protobuf for built-in kinds, server-side apply, status patches, events,
// admission webhooks and the conversion webhook of its two versions (v1 stored, v2 served). It prints one line per
// milestone for the driving test.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/go-logr/logr/funcr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/pointer"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	webhookconversion "sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

var (
	gv   = schema.GroupVersion{Group: "demo.mini-kube.dev", Version: "v1"}
	gvV2 = schema.GroupVersion{Group: "demo.mini-kube.dev", Version: "v2"}
)

type WidgetSpec struct {
	Replicas int32  `json:"replicas"`
	Image    string `json:"image"`
	Message  string `json:"message,omitempty"`
}

type WidgetStatus struct {
	Phase         string `json:"phase,omitempty"`
	ReadyReplicas int32  `json:"readyReplicas,omitempty"`
}

type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec"`
	Status            WidgetStatus `json:"status,omitempty"`
}

type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

func (w *Widget) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

func (l *WidgetList) DeepCopyObject() runtime.Object {
	out := *l
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopyItems[Widget](l.Items)
	return &out
}

// deepCopyItems copies a list's items, each through its DeepCopyObject.
func deepCopyItems[T any, P interface {
	*T
	runtime.Object
}](items []T) []T {
	out := make([]T, len(items))
	for i := range items {
		out[i] = *P(&items[i]).DeepCopyObject().(P)
	}
	return out
}

// Hub marks v1, the stored version, as the one every other version converts through.
func (*Widget) Hub() {}

// WidgetV2 is the v2 form of a Widget: spec.size instead of spec.replicas.
type WidgetV2Spec struct {
	Size    int32  `json:"size"`
	Image   string `json:"image"`
	Message string `json:"message,omitempty"`
}

type WidgetV2 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetV2Spec `json:"spec"`
	Status            WidgetStatus `json:"status,omitempty"`
}

type WidgetV2List struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WidgetV2 `json:"items"`
}

func (w *WidgetV2) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

func (l *WidgetV2List) DeepCopyObject() runtime.Object {
	out := *l
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopyItems[WidgetV2](l.Items)
	return &out
}

// ConvertTo and ConvertFrom are what controller-runtime's conversion webhook calls for v2 <-> v1.
func (w *WidgetV2) ConvertTo(dst conversion.Hub) error {
	v1 := dst.(*Widget)
	v1.ObjectMeta = w.ObjectMeta
	v1.Spec = WidgetSpec{Replicas: w.Spec.Size, Image: w.Spec.Image, Message: w.Spec.Message}
	v1.Status = w.Status
	return nil
}

func (w *WidgetV2) ConvertFrom(src conversion.Hub) error {
	v1 := src.(*Widget)
	w.ObjectMeta = v1.ObjectMeta
	w.Spec = WidgetV2Spec{Size: v1.Spec.Replicas, Image: v1.Spec.Image, Message: v1.Spec.Message}
	w.Status = v1.Status
	return nil
}

type reconciler struct {
	client.Client
	recorder record.EventRecorder
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// A Deployment through the protobuf client, created or updated.
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.Client, dep, func() error {
		labels := map[string]string{"widget": w.Name}
		dep.Spec.Replicas = pointer.Int32(w.Spec.Replicas)
		dep.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels}
		dep.Spec.Template.Labels = labels
		dep.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: w.Spec.Image}}
		return controllerutil.SetControllerReference(&w, dep, r.Scheme())
	})
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("deployment: %w", err)
	}
	// A ConfigMap by server-side apply, owned by this field manager.
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-config", Namespace: w.Namespace},
		Data:       map[string]string{"message": w.Spec.Message},
	}
	if err := controllerutil.SetControllerReference(&w, cm, r.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Patch(ctx, cm, client.Apply, client.FieldOwner("widget-operator"), client.ForceOwnership); err != nil {
		return ctrl.Result{}, fmt.Errorf("apply configmap: %w", err)
	}
	// Pods of the widget, metadata only.
	pods := &metav1.PartialObjectMetadataList{}
	pods.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("PodList"))
	if err := r.List(ctx, pods, client.InNamespace(w.Namespace), client.MatchingLabels{"widget": w.Name}); err != nil {
		return ctrl.Result{}, fmt.Errorf("list pod metadata: %w", err)
	}
	// Status through the status subresource, as a merge patch.
	before := w.DeepCopyObject().(*Widget)
	w.Status.Phase = "Reconciled"
	w.Status.ReadyReplicas = dep.Status.ReadyReplicas
	if err := r.Status().Patch(ctx, &w, client.MergeFrom(before)); err != nil {
		return ctrl.Result{}, fmt.Errorf("status: %w", err)
	}
	r.recorder.Eventf(&w, corev1.EventTypeNormal, "Reconciled", "deployment %s, %d pods seen", op, len(pods.Items))
	fmt.Printf("RECONCILED %s deployment=%s ready=%d pods=%d\n", req.NamespacedName, op, dep.Status.ReadyReplicas, len(pods.Items))
	return ctrl.Result{}, nil
}

// Admission: widgets get a default message; more than 10 replicas are refused.
type defaulter struct{}

func (defaulter) Handle(_ context.Context, req admission.Request) admission.Response {
	var w Widget
	if err := json.Unmarshal(req.Object.Raw, &w); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if w.Spec.Message != "" {
		return admission.Allowed("")
	}
	w.Spec.Message = "hello from the webhook"
	raw, _ := json.Marshal(&w)
	return admission.PatchResponseFromRaw(req.Object.Raw, raw)
}

type validator struct{}

func (validator) Handle(_ context.Context, req admission.Request) admission.Response {
	var w Widget
	if err := json.Unmarshal(req.Object.Raw, &w); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if w.Spec.Replicas > 10 {
		return admission.Denied(fmt.Sprintf("spec.replicas %d is more than 10", w.Spec.Replicas))
	}
	return admission.Allowed("")
}

func main() {
	var webhookPort int
	var certDir string
	flag.IntVar(&webhookPort, "webhook-port", 9443, "port of the webhook server (127.0.0.1)")
	flag.StringVar(&certDir, "cert-dir", "", "directory with the webhook server's tls.crt and tls.key")
	flag.Parse()
	ctrl.SetLogger(funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) }, funcr.Options{Verbosity: 1}))

	scheme := runtime.NewScheme()
	must(clientgoscheme.AddToScheme(scheme))
	scheme.AddKnownTypes(gv, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(scheme, gv)
	scheme.AddKnownTypeWithName(gvV2.WithKind("Widget"), &WidgetV2{})
	scheme.AddKnownTypeWithName(gvV2.WithKind("WidgetList"), &WidgetV2List{})
	metav1.AddToGroupVersion(scheme, gvV2)

	cfg := ctrl.GetConfigOrDie()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  scheme,
		LeaderElection:          true,
		LeaderElectionID:        "widget-operator",
		LeaderElectionNamespace: "default",
		MetricsBindAddress:      "0",
		HealthProbeBindAddress:  "0",
		WebhookServer:           &webhook.Server{Host: "127.0.0.1", Port: webhookPort, CertDir: certDir},
	})
	must(err)
	mgr.GetWebhookServer().Register("/mutate-widget", &webhook.Admission{Handler: defaulter{}})
	mgr.GetWebhookServer().Register("/validate-widget", &webhook.Admission{Handler: validator{}})
	converter := &webhookconversion.Webhook{}
	must(converter.InjectScheme(scheme))
	mgr.GetWebhookServer().Register("/convert", converter)

	must(ctrl.NewControllerManagedBy(mgr).
		For(&Widget{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.ConfigMap{}, builder.OnlyMetadata).
		Complete(&reconciler{Client: mgr.GetClient(), recorder: mgr.GetEventRecorderFor("widget-operator")}))

	go func() {
		<-mgr.Elected()
		fmt.Println("ELECTED")
	}()
	log.Log.Info("starting")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
		os.Exit(1)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
