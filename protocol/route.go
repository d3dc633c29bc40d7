package protocol

import "github.com/smithycurl/smithycurl/model"

// Route is how an operation of svc reads on the wire: "GET /todos/{id}"
// from its @http trait for the REST protocols, "POST /  (X-Amz-Target:
// Service.Operation)" for the AWS JSON protocols, "POST
// /service/Service/operation/Operation" for the rpcv2 protocols, "POST /
// (Action=Operation)" for the query protocols, "" when none applies.
func Route(svc *model.Service, op *model.Operation) string {
	if svc.Shape.HasTrait(AWSJSON1_0) || svc.Shape.HasTrait(AWSJSON1_1) {
		return "POST /  (X-Amz-Target: " + amzTarget(svc, op) + ")"
	}
	if svc.Shape.HasTrait(AWSQuery) || svc.Shape.HasTrait(EC2Query) {
		return "POST /  (Action=" + op.Name + ")"
	}
	if svc.Shape.HasTrait(RPCv2CBOR) || svc.Shape.HasTrait(RPCv2JSON) {
		return "POST " + rpcv2Path(svc, op)
	}
	h, ok := op.Shape.Trait(model.TraitHTTP)
	if !ok {
		return ""
	}
	method, _ := h.Get("method")
	uri, _ := h.Get("uri")
	return method.Str() + " " + uri.Str()
}

// amzTarget is the X-Amz-Target header of an AWS JSON operation.
func amzTarget(svc *model.Service, op *model.Operation) string {
	return svc.Shape.ID.Name() + "." + op.Name
}
