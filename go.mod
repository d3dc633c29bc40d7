module github.com/smithycurl/smithycurl

go 1.26
