module github.com/smithycurl/smithycurl

go 1.26.0

require (
	github.com/andelf/go-curl v0.0.0-20250312014544-8683354c1636
	github.com/mccutchen/go-httpbin/v2 v2.26.0
)
