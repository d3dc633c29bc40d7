$version: "2.0"

// Trait definitions of the aws.customizations namespace, written for smithycurl.
namespace aws.customizations

/// Marks an Amazon S3 operation whose XML output has no wrapping element.
@trait(selector: "operation")
structure s3UnwrappedXmlOutput {}
