"""The smithycurl command line of the Python package.

    python -m smithycurl gen MODEL... [--service ID] [--async] -o OUT/   # a typed module
    python -m smithycurl ops MODEL...                          # services and operations
    python -m smithycurl version                               # package and library versions
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from . import __version__, errors, load_model


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m smithycurl", description="smithycurl for Python")
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gen", help="write a typed Python package for a service")
    g.add_argument("model", nargs="+", help="model files or directories (.smithy, .json)")
    g.add_argument("--service", help="the service's id (ns#Service); optional when the model has one")
    g.add_argument("-o", "--out", required=True, help="the package folder to write (its name is the module's)")
    g.add_argument("--async", dest="aio", action="store_true",
                   help="also write the asyncio client class (NameAsyncClient, on smithycurl.aio)")
    o = sub.add_parser("ops", help="list the services and operations of a model")
    o.add_argument("model", nargs="+")
    sub.add_parser("version", help="print the package's and the library's versions")
    args = ap.parse_args(argv)
    try:
        if args.command == "version":
            from . import library_path, library_version

            print(f"smithycurl {__version__} (library {library_version()} at {library_path()})")
            return 0
        model = load_model(*args.model)
        if args.command == "ops":
            for s in model.services:
                print(f"{s.id}" + (f" {s.version}" if s.version else ""))
                for op in s.operations:
                    http = f"  {op.http['method']} {op.http['uri']}" if op.http else ""
                    print(f"  {op.py_name}  ({op.name}){http}")
            return 0
        from .gen import generate

        for path in generate(model, args.service, args.out, aio=args.aio):
            print(path)
        return 0
    except errors.LoadError as e:
        print("\n".join(e.errors) or str(e), file=sys.stderr)
        return 2
    except (errors.SmithycurlError, ValueError, OSError) as e:
        print(f"smithycurl: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
