"""botocore's side of the credential-chain differential (testing/credchain).

Each case runs in a process of its own with the case's environment as
os.environ (HOME, AWS_*) and stdin at end of file: with --serve, forked
from a process that imported botocore once (a request per stdin line:
{"id", "env", "cwd", "profile", "client", "out", "err"}; the child writes
its result to "out", its stderr to "err", then "id" to stdout). The result
is one JSON object: the credentials botocore's default resolver picks
(access key id, whether there is a session token) or its error, the region
and, when botocore reads configured endpoints (1.31+), the endpoint URL of
the client named by --client.

STS, SSO and SSO-OIDC go to the fakes: botocore 1.31+ reads
AWS_ENDPOINT_URL_STS, _SSO and _SSO_OIDC itself; older versions get the
same URLs through a wrapper of Session.create_client, which every provider
calls (AssumeRole, web identity and SSO via their client_creator, the SSO
token refresh directly) when it needs a client. The wrapper also gives STS
us-east-1 when no region is set: botocore signs its global endpoint so,
but raises NoRegionError for a configured endpoint without a region.
"""
import argparse
import json
import os
import signal
import sys

import botocore
import botocore.session


def version():
    return tuple(int(x) for x in botocore.__version__.split('.')[:2])


# Configured endpoint URLs (AWS_ENDPOINT_URL*, endpoint_url, services).
NATIVE_ENDPOINTS = version() >= (1, 31)

FAKE_VARS = {'sts': 'AWS_ENDPOINT_URL_STS', 'sso': 'AWS_ENDPOINT_URL_SSO',
             'sso-oidc': 'AWS_ENDPOINT_URL_SSO_OIDC'}


def error_text(e):
    return '%s: %s' % (type(e).__name__, e)


def session_for(profile):
    s = botocore.session.Session(profile=profile or None)
    create = s.create_client

    def create_client(service_name, *args, **kwargs):
        url = os.environ.get(FAKE_VARS.get(service_name, ''), '')
        if url and not NATIVE_ENDPOINTS and not kwargs.get('endpoint_url'):
            kwargs['endpoint_url'] = url
        # Without a region botocore signs STS's global endpoint for
        # us-east-1; with an endpoint URL (the fake's) it needs one.
        if url and service_name == 'sts' and not kwargs.get('region_name') \
                and not s.get_config_variable('region'):
            kwargs['region_name'] = 'us-east-1'
        return create(service_name, *args, **kwargs)

    s.create_client = create_client
    return s


def settings(s):
    """The settings smithycurl's side reports, normalized as it does:
    legacy retry mode as standard (its default), booleans as botocore's
    client reads them (ensure_boolean)."""
    from botocore.utils import ensure_boolean
    get = s.get_config_variable
    st = {'max_attempts': '', 'ca_bundle': get('ca_bundle') or ''}
    if get('max_attempts') is not None:
        st['max_attempts'] = str(get('max_attempts'))
    mode = get('retry_mode') or 'legacy'
    st['retry_mode'] = 'standard' if mode == 'legacy' else mode
    for key in ('use_fips_endpoint', 'use_dualstack_endpoint'):
        v = get(key)
        st[key] = '' if v is None else str(ensure_boolean(v)).lower()
    return st


def resolve(profile, client_name):
    out = {'botocore': botocore.__version__, 'endpoint_supported': NATIVE_ENDPOINTS}

    try:
        creds = session_for(profile).get_credentials()
        if creds is None:
            out['creds_error'] = 'no credentials'
            out['not_found'] = True
        else:
            f = creds.get_frozen_credentials()
            out['akid'] = f.access_key
            out['token'] = bool(f.token)
            out['method'] = creds.method
    except Exception as e:
        out['creds_error'] = error_text(e)

    try:
        s = session_for(profile)
        out['region'] = s.get_config_variable('region') or ''
        out['settings'] = settings(s)
    except Exception as e:
        out['region_error'] = error_text(e)

    if NATIVE_ENDPOINTS:
        # What create_client reads (ClientArgsCreator's
        # _compute_configured_endpoint_url), without building a client,
        # whose other checks (an SSO token provider's) are not settings.
        try:
            from botocore.configprovider import ConfiguredEndpointProvider
            s = session_for(profile)
            url = None
            if not s.get_config_variable('ignore_configured_endpoint_urls'):
                url = ConfiguredEndpointProvider(
                    full_config=s.full_config,
                    scoped_config=s.get_scoped_config(),
                    client_name=client_name).provide()
            out['endpoint'] = url or ''
        except Exception as e:
            out['endpoint_error'] = error_text(e)

    return out


def rehome():
    """Sets what botocore computes from HOME at import time, as a process
    started with the case's HOME would have it."""
    import botocore.credentials
    import botocore.tokens
    sso = os.path.expanduser(os.path.join('~', '.aws', 'sso', 'cache'))
    botocore.credentials.SSOProvider._SSO_TOKEN_CACHE_DIR = sso
    botocore.tokens.SSOTokenProvider._SSO_TOKEN_CACHE_DIR = sso


def serve():
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reap themselves
    for line in sys.stdin:
        req = json.loads(line)
        if os.fork() != 0:
            continue
        code = 1
        try:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            os.environ.clear()
            os.environ.update(req['env'])
            os.chdir(req['cwd'])
            rehome()
            # Nothing to read: an MFA prompt gets end of file, as in make.
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            sys.stdin = open(os.devnull)
            err = os.open(req['err'], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(err, 2)
            out = resolve(req['profile'], req['client'])
            with open(req['out'], 'w') as f:
                json.dump(out, f)
            code = 0
        finally:
            os.write(1, ('%s\n' % req['id']).encode())
            os._exit(code)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--serve', action='store_true')
    ap.add_argument('--profile', default='')
    ap.add_argument('--client', default='dynamodb')
    args = ap.parse_args()
    if args.serve:
        serve()
        return
    json.dump(resolve(args.profile, args.client), sys.stdout)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
