// What the C benchmarks against the AWS emulators share (dynamodb.c,
// s3.c): a C API client made through dlopen (so that the libcurl side,
// in another child process, never loads the Go runtime), and a side run
// in a child process.
#ifndef SMITHYCURL_BENCH_AWS_H
#define SMITHYCURL_BENCH_AWS_H

#include <dlfcn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smithycurl.h"

#define BENCH_KEY "AKIDEXAMPLE"
#define BENCH_SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define BENCH_REGION "us-east-1"

// SYM declares the library's function smithycurl_NAME as NAME, from lib.
#define SYM(name) typeof(&smithycurl_##name) name = dlsym(lib, "smithycurl_" #name)

// bench_client loads libsmithycurl from so, the model at model_path and a
// client of service at url with the benchmark's credentials into *c;
// returns the library's handle, or NULL after saying why.
static inline void *bench_client(const char *so, const char *model_path, const char *service, const char *url,
                                 smithycurl_client **c) {
    void *lib = dlopen(so, RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "%s\n", dlerror());
        return NULL;
    }
    SYM(loader_new);
    SYM(loader_add_path);
    SYM(loader_load);
    SYM(options_new);
    SYM(options_set_aws_sigv4);
    SYM(client_new);
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    smithycurl_options *o = NULL;
    if (loader_new(&ld) || loader_add_path(ld, model_path) || loader_load(ld, &m) || options_new(&o) ||
        options_set_aws_sigv4(o, BENCH_KEY, BENCH_SECRET, NULL, BENCH_REGION) || client_new(m, service, url, o, c)) {
        fprintf(stderr, "smithycurl set-up failed\n");
        return NULL;
    }
    return lib;
}

// in_child runs side(arg, out) in a child process and reads back the two
// figures it wrote to out (wall and CPU time per call); 0 on success.
static inline int in_child(int (*side)(const void *arg, double out[2]), const void *arg, double out[2]) {
    int fd[2];
    if (pipe(fd)) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double r[2] = {0, 0};
        int rc = side(arg, r);
        if (write(fd[1], r, sizeof r) != sizeof r) rc = 1;
        _exit(rc);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], out, 2 * sizeof(double));
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return n == 2 * sizeof(double) && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

#endif
