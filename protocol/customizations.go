package protocol

import "github.com/smithycurl/smithycurl/model"

// Service customizations: what the AWS SDKs add to the protocol for some
// services, found by service shape id as the SDKs do.

// apiGateway is Amazon API Gateway, which needs "Accept: application/json"
// on every request (every AWS SDK sets it; the restJson1 protocol test
// ApiGatewayAccept checks it).
const apiGateway model.ShapeID = "com.amazonaws.apigateway#BackplaneControlService"

// inAPIGateway reports whether op is an operation of API Gateway.
func inAPIGateway(m *model.Model, op *model.Operation) bool {
	svc, err := m.Service(apiGateway)
	if err != nil {
		return false
	}
	o, err := svc.Operation(op.Name)
	return err == nil && o.Shape.ID == op.Shape.ID
}
