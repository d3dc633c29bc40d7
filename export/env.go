package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"unsafe"

	"github.com/smithycurl/smithycurl/awsconfig"
)

// processEnv is where the library's clients read the AWS settings and
// credentials: the C environment at the moment of reading. Go's own copy
// of the environment is taken when the library loads, so without it a
// variable the program sets later (setenv, putenv, Python's os.environ)
// would go unseen. getenv is what libcurl itself reads (proxies).
var processEnv = awsconfig.Env{Lookup: lookupCEnv}

// lookupCEnv is getenv, telling unset (NULL) from empty.
func lookupCEnv(name string) (string, bool) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	v := C.getenv(cs)
	if v == nil {
		return "", false
	}
	return C.GoString(v), true
}
