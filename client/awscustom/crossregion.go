package awscustom

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
)

// Presigner is the client's presigning for the customizations that send
// a presigned URL of the same operation (RDS's PreSignedUrl): the URL of
// the request of input to region's endpoint, signed for region, sent as a
// GET with the form parameter name=value (awsQuery) added.
type Presigner func(ctx context.Context, input []byte, region, name, value string) (string, error)

// CrossRegion runs the hooks that presign the request in another region
// (see presignedURL); dest is the client's region.
func (h *Hooks) CrossRegion(ctx context.Context, in []byte, dest string, presign Presigner) ([]byte, error) {
	if h == nil {
		return in, nil
	}
	for _, f := range h.crossRegion {
		var err error
		if in, err = f(ctx, in, dest, presign); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// presignedURL is botocore's inject_presigned_url_rds, for the RDS,
// DocumentDB and Neptune operations that copy or replicate from another
// region: an input with SourceRegion (botocore's parameter, not modeled)
// loses it and, unless it gives PreSignedUrl, gets one: the same
// operation, with DestinationRegion the client's region, presigned (an
// hour) for the source region's endpoint.
func presignedURL(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{extraInput: []string{sourceRegion}, crossRegion: []func(context.Context, []byte, string, Presigner) ([]byte, error){
		func(ctx context.Context, in []byte, dest string, presign Presigner) ([]byte, error) {
			o, ok := parseObject(in)
			if !ok || !o.present(sourceRegion) {
				return in, nil
			}
			src, isStr := o.str(sourceRegion)
			if !isStr && !o.readable(sourceRegion) {
				return in, nil // not JSON text: the codec refuses it
			}
			o.remove(sourceRegion)
			if !isStr || src == "" || o.has("PreSignedUrl") {
				return o.bytes(), nil // null or "": no source region, as botocore's None
			}
			stripped := o.bytes()
			u, err := presign(ctx, stripped, src, "DestinationRegion", dest)
			if err != nil {
				return nil, fmt.Errorf("presigning PreSignedUrl for SourceRegion %s: %w", src, err)
			}
			o.setStr("PreSignedUrl", u)
			return o.bytes(), nil
		},
	}}
}

// sourceRegion is the input member (botocore's, not in the models) that
// names the region to presign in.
const sourceRegion = "SourceRegion"

// present reports whether the document has member name, null or not.
func (o *object) present(name string) bool {
	for _, n := range o.names {
		if n == name {
			return true
		}
	}
	return false
}
