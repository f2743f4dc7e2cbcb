// roundtrip checks, as client-go sees them, that every built-in kind the server lists reads the same in JSON and in
// protobuf, and that writing an object back unchanged (in protobuf, then in JSON) changes nothing a controller
// watches: neither its generation nor anything outside its metadata. It prints one line per mismatch and ends with
// "mismatches: N".
package main

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

const (
	jsonType     = "application/json"
	protobufType = "application/vnd.kubernetes.protobuf"
)

var mismatches int

func report(format string, args ...interface{}) {
	mismatches++
	fmt.Printf(format+"\n", args...)
}

func restClient(cfg *rest.Config, gv schema.GroupVersion, contentType string) *rest.RESTClient {
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &gv
	c.APIPath = "/apis"
	if gv.Group == "" {
		c.APIPath = "/api"
	}
	c.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	c.ContentType = contentType
	c.AcceptContentTypes = contentType
	rc, err := rest.RESTClientFor(c)
	if err != nil {
		panic(err)
	}
	return rc
}

func main() {
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		panic(err)
	}
	lists, err := discovery.NewDiscoveryClientForConfigOrDie(cfg).ServerPreferredResources()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for _, l := range lists {
		gv, _ := schema.ParseGroupVersion(l.GroupVersion)
		for _, r := range l.APIResources {
			listKind := gv.WithKind(r.Kind + "List")
			if strings.Contains(r.Name, "/") || !has(r.Verbs, "list") || !scheme.Scheme.Recognizes(listKind) {
				continue
			}
			read := map[string]runtime.Object{}
			for _, ct := range []string{jsonType, protobufType} {
				list, _ := scheme.Scheme.New(listKind)
				if err := restClient(cfg, gv, ct).Get().Resource(r.Name).Do(ctx).Into(list); err != nil {
					report("list %s as %s: %v", listKind, ct, err)
					continue
				}
				listMeta(list).ResourceVersion = ""
				read[ct] = list
			}
			if read[jsonType] != nil && read[protobufType] != nil && !equality.Semantic.DeepEqual(read[jsonType], read[protobufType]) {
				report("list %s: JSON and protobuf differ", listKind)
			}
			if read[protobufType] == nil || !has(r.Verbs, "update") {
				continue
			}
			items := reflect.ValueOf(read[protobufType]).Elem().FieldByName("Items")
			for i := 0; i < items.Len() && i < 3; i++ {
				for _, ct := range []string{protobufType, jsonType} {
					writeBack(ctx, restClient(cfg, gv, ct), gv, r, items.Index(i).Addr().Interface().(runtime.Object), ct)
				}
			}
		}
	}
	fmt.Printf("mismatches: %d\n", mismatches)
}

// writeBack PUTs the object as the server last returned it and compares what comes back.
func writeBack(ctx context.Context, rc *rest.RESTClient, gv schema.GroupVersion, r metav1.APIResource, obj runtime.Object, ct string) {
	m := obj.(metav1.Object)
	req := rc.Put().Resource(r.Name).Name(m.GetName()).Body(obj)
	if r.Namespaced {
		req = req.Namespace(m.GetNamespace())
	}
	out, _ := scheme.Scheme.New(gv.WithKind(r.Kind))
	if err := req.Do(ctx).Into(out); err != nil {
		if !strings.Contains(err.Error(), "the object has been modified") { // a controller wrote it meanwhile
			report("write back %s %s/%s as %s: %v", r.Kind, m.GetNamespace(), m.GetName(), ct, err)
		}
		return
	}
	o := out.(metav1.Object)
	if o.GetGeneration() != m.GetGeneration() {
		report("write back %s %s/%s as %s: generation %d -> %d", r.Kind, m.GetNamespace(), m.GetName(), ct, m.GetGeneration(), o.GetGeneration())
	}
	before, after := reflect.ValueOf(obj).Elem(), reflect.ValueOf(out).Elem()
	for f := 0; f < before.NumField(); f++ {
		name := before.Type().Field(f).Name
		if name == "TypeMeta" || name == "ObjectMeta" {
			continue
		}
		if !equality.Semantic.DeepEqual(before.Field(f).Interface(), after.Field(f).Interface()) {
			report("write back %s %s/%s as %s: %s changed", r.Kind, m.GetNamespace(), m.GetName(), ct, name)
		}
	}
	// the next write starts from what the server holds now
	reflect.ValueOf(obj).Elem().Set(after)
}

func listMeta(o runtime.Object) *metav1.ListMeta {
	return reflect.ValueOf(o).Elem().FieldByName("ListMeta").Addr().Interface().(*metav1.ListMeta)
}

func has(verbs []string, v string) bool {
	for _, x := range verbs {
		if x == v {
			return true
		}
	}
	return false
}
