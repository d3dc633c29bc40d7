package conformance

import (
	"encoding/base64"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// The server side of the RPC and query protocols, on the runner of
// server.go.

// AWSJSON10Server runs the aws.protocols#awsJson1_0 server cases.
func AWSJSON10Server(shared string) Result {
	return runServerSuite(shared, "awsJson1_0 (server)", serverSuite{proto: protocol.AWSJSON1_0, excl: "awsJson1_0-server.tsv"})
}

// AWSJSON11Server runs the aws.protocols#awsJson1_1 server cases.
func AWSJSON11Server(shared string) Result {
	return runServerSuite(shared, "awsJson1_1 (server)", serverSuite{proto: protocol.AWSJSON1_1, excl: "awsJson1_1-server.tsv"})
}

// RPCv2CBORServer runs the smithy.protocols#rpcv2Cbor server cases.
func RPCv2CBORServer(shared string) Result {
	return runServerSuite(shared, "rpcv2Cbor (server)", serverSuite{proto: protocol.RPCv2CBOR, excl: "rpcv2Cbor-server.tsv"})
}

// RPCv2JSONServer runs the smithy.protocols#rpcv2Json server cases.
func RPCv2JSONServer(shared string) Result {
	return runServerSuite(shared, "rpcv2Json (server)", serverSuite{proto: protocol.RPCv2JSON, excl: "rpcv2Json-server.tsv"})
}

// AWSQueryServer runs the aws.protocols#awsQuery server cases.
func AWSQueryServer(shared string) Result {
	return runServerSuite(shared, "awsQuery (server)", serverSuite{proto: protocol.AWSQuery, excl: "awsQuery-server.tsv"})
}

// EC2QueryServer runs the aws.protocols#ec2Query server cases.
func EC2QueryServer(shared string) Result {
	return runServerSuite(shared, "ec2Query (server)", serverSuite{proto: protocol.EC2Query, excl: "ec2Query-server.tsv", requestID: "requestid"})
}

// completeRPCRequest adds to the request of case c what the case leaves
// out but every request of its protocol has: awsJson's X-Amz-Target (the
// cases are attached to their operation, and several written for servers
// omit the header), and the bytes of a CBOR body the case gives in base64
// without a bodyMediaType (its Content-Type says CBOR).
func completeRPCRequest(proto model.ShapeID, c protocolCase, req *wire.Request) {
	switch proto {
	case protocol.AWSJSON1_0, protocol.AWSJSON1_1:
		if req.Header.Get("X-Amz-Target") == "" {
			req.Header.Set("X-Amz-Target", c.svc.Name()+"."+c.op.Name)
		}
	case protocol.RPCv2CBOR:
		if field(c.tc, "bodyMediaType") == "" && isCBOR(req.Header.Get("Content-Type")) {
			if b, err := base64.StdEncoding.DecodeString(field(c.tc, "body")); err == nil {
				req.Body = b
			}
		}
	}
}
