package endpoints

import "testing"

func TestParseArn(t *testing.T) {
	cases := map[string]string{
		"arn:aws:sns:us-west-2:012345678910:example-sns-topic-name":    `["aws","sns","us-west-2","012345678910",["example-sns-topic-name"]]`,
		"arn:aws:ec2:us-east-1:012345678910:vpc/vpc-0e9801d129EXAMPLE": `["aws","ec2","us-east-1","012345678910",["vpc","vpc-0e9801d129EXAMPLE"]]`,
		"arn:aws:iam::012345678910:user/johndoe":                       `["aws","iam","","012345678910",["user","johndoe"]]`,
		"arn:aws:s3:::bucket_name":                                     `["aws","s3","","",["bucket_name"]]`,
		"arn:aws:s3:us-west-2:123:accesspoint:a::b":                    `["aws","s3","us-west-2","123",["accesspoint","a","","b"]]`,
		"11111111-2222-3333-4444-555555555555":                         `null`,
		"arn:aws:s3:us-west-2:123:":                                    `null`,
		"arn::s3:us-west-2:123:x":                                      `null`,
		"arn:aws::us-west-2:123:x":                                     `null`,
	}
	for in, want := range cases {
		v := parseArn(String(in))
		got := "null"
		if v.IsSet() {
			got = Array([]Value{v.Field("partition"), v.Field("service"), v.Field("region"), v.Field("accountId"), v.Field("resourceId")}).JSON()
		}
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestIsVirtualHostableS3Bucket(t *testing.T) {
	cases := []struct {
		in   string
		sub  bool
		want bool
	}{
		{"my-bucket", false, true}, {"ab", false, false}, {"abc", false, true},
		{"My-bucket", false, false}, {"-bucket", false, false}, {"bucket-", false, false},
		{"a.b.c", false, false}, {"a.b.c", true, true}, {"a..b", true, false}, {"a.-b", true, false},
		{"192.168.0.1", true, false}, {"192.168.0.1a", true, true},
		{string(make([]byte, 64)), false, false},
	}
	for _, c := range cases {
		if got := isVirtualHostableS3Bucket(c.in, c.sub); got != c.want {
			t.Errorf("%q sub=%v: %v, want %v", c.in, c.sub, got, c.want)
		}
	}
}

func TestParseURL(t *testing.T) {
	cases := map[string]string{
		"https://example.com":              `https|example.com|||/|false`,
		"http://example.com:80/foo/bar":    `http|example.com:80||/foo/bar|/foo/bar/|false`,
		"https://127.0.0.1":                `https|127.0.0.1|||/|true`,
		"https://[fe80::1]":                `https|[fe80::1]|||/|true`,
		"https://example.com:8443?foo=bar": `null`,
		"ftp://example.com":                `null`,
		"example.com":                      `null`,
		"https://user@example.com/":        `null`,
		"https://example.com/a#frag":       `null`,
		"https://999.999.abc.blah/x":       `https|999.999.abc.blah||/x|/x/|false`,
	}
	for in, want := range cases {
		v := parseURL(String(in))
		got := "null"
		if v.IsSet() {
			got = v.Field("scheme").s + "|" + v.Field("authority").s + "||" + v.Field("path").s + "|" + v.Field("normalizedPath").s + "|" + v.Field("isIp").text()
		}
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestSmallFunctions(t *testing.T) {
	if got := uriEncode(String("a b/c~é")).s; got != "a%20b%2Fc~%C3%A9" {
		t.Errorf("uriEncode: %s", got)
	}
	if got := substring(String("abcdefg"), Int(0), Int(4), Bool(true)).s; got != "defg" {
		t.Errorf("substring reverse: %s", got)
	}
	if substring(String("abc"), Int(0), Int(4), Bool(false)).IsSet() || substring(String("ab\u00e9d"), Int(0), Int(2), Bool(false)).IsSet() {
		t.Error("substring: out of range or non-ASCII input gave a value")
	}
	arr := StringArray([]string{"a", "b", "c"})
	steps, _ := parsePath("[-1]")
	if got := walk(arr, steps).s; got != "c" {
		t.Errorf("getAttr [-1]: %s", got)
	}
	steps, _ = parsePath("[-4]")
	if walk(arr, steps).IsSet() {
		t.Error("getAttr [-4] of 3 items gave a value")
	}
	rec := Record(map[string]Value{"x": Record(map[string]Value{"y": arr})})
	steps, _ = parsePath("x.y[1]")
	if got := walk(rec, steps).s; got != "b" {
		t.Errorf("getAttr x.y[1]: %s", got)
	}
	for _, c := range []struct {
		s    string
		sub  bool
		want bool
	}{{"us-east-1", false, true}, {"a.b", false, false}, {"a.b", true, true}, {"a..b", true, false}, {"-a", false, false}, {"", false, false}, {"a\r\nb", true, false}} {
		if got := isValidHostLabel(c.s, c.sub); got != c.want {
			t.Errorf("isValidHostLabel(%q, %v) = %v", c.s, c.sub, got)
		}
	}
	if p := awsPartition(String("cn-north-1")); p.Field("dnsSuffix").s != "amazonaws.com.cn" {
		t.Errorf("cn-north-1: %s", p.JSON())
	}
	if p := awsPartition(String("us-gov-central-9")); p.Field("name").s != "aws-us-gov" {
		t.Errorf("regex match: %s", p.JSON())
	}
	if p := awsPartition(String("mars-1")); p.Field("name").s != "aws" {
		t.Errorf("fallback: %s", p.JSON())
	}
}
