module github.com/smithycurl/smithycurl

go 1.26.0

require (
	github.com/andelf/go-curl v0.0.0-20250312014544-8683354c1636
	github.com/bytedance/sonic v1.15.5
	github.com/cloudwego/base64x v0.1.6
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/jmespath-community/go-jmespath v1.1.1
	github.com/mccutchen/go-httpbin/v2 v2.26.0
)

require (
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/exp v0.0.0-20230314191032-db074128a8ec // indirect
	golang.org/x/sys v0.22.0 // indirect
)
