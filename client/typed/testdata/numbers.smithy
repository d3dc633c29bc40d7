// A service answering numbers, for the tests of out-of-type output values:
// client/typed/outputcheck_test.go, bindings/python/tests/test_output_types.py.
$version: "2"
namespace smithycurl.test.numbers

use aws.protocols#awsJson1_0

@awsJson1_0
service Tables {
    version: "2012-08-10"
    operations: [Scan]
}

operation Scan {
    output: ScanOutput
}

structure ScanOutput {
    Count: Integer
    ScannedCount: Integer
    Ratio: Double
}
