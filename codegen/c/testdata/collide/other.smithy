$version: "2"

// A shape with the same name as one in smithycurl.test.collide.
namespace smithycurl.test.other

structure FooBar {
    z: Integer
}
