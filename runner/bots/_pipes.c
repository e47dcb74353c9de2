/* The usual turn of persistent bots in C: write every bot its request line, then wait for one whole answer
 * line from each (runner/bots/persistent.py `exchange`).
 *
 * Why: in a 12,630-turn Invaders match the usual turn's Python around four system calls (two writes, a poll,
 * two reads) was ~60,000 instructions, two fifths of the runner's work per turn, and every microsecond of it
 * also delays the bots on a machine with as many cores as bots. This module does only that usual turn and
 * stops at the first other thing, leaving it to the Python code, which holds every rule (time limits, late
 * answers, output caps, stderr): persistent.py falls back to its own loop when the module is not built.
 *
 * wait_lines polls every stdout fd, then every stderr fd (poll reports them in that order: stderr written
 * before an answer shows in the very poll that shows the answer), reads a readable stdout once, and takes
 * the chunk when it is one whole line (its only newline at its end). An answered bot's stdout leaves the
 * poll: what it writes next stays in the pipe for the next turn.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PIPES_SOURCE_SHA256 /* setup.py defines it: the digest of this file, for the stale-build guard */
#define PIPES_SOURCE_SHA256 "unknown"
#endif

#define MAX_BOTS 64
#define READ_CHUNK 65536

/* the stop kinds of wait_lines */
#define STOP_DEADLINE 0
#define STOP_EVENT 1 /* stderr, or a pipe's end or error flag without a read: nothing read */
#define STOP_CHUNK 2 /* a stdout chunk that is not one whole line (b"" at the end of stdout) */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fd_list(PyObject *tuple, int *fds, Py_ssize_t count, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != count) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd fds", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long fd = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (fd == -1 && PyErr_Occurred()) return -1;
        if (fd < 0 || fd > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "%s: bad fd %ld", what, fd);
            return -1;
        }
        fds[i] = (int)fd;
    }
    return 0;
}

/* The number of bots of a call whose first two arguments are tuples of one length (at most MAX_BOTS), out of
 * `wanted` arguments; -1 with a TypeError naming `usage` otherwise. */
static Py_ssize_t bot_count(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t wanted, const char *usage) {
    if (nargs != wanted || !PyTuple_Check(args[0]) || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[0]) != PyTuple_GET_SIZE(args[1]) || PyTuple_GET_SIZE(args[0]) > MAX_BOTS) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    return PyTuple_GET_SIZE(args[0]);
}

/* write_each(fds, datas) -> -1 when every data went whole to its (non-blocking) fd, else (index, written) of
 * the first that did not: written 0 when the pipe was full (EAGAIN), -1 when the bot closed its stdin. */
static PyObject *write_each(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t count = bot_count(args, nargs, 2, "write_each(fds, datas): two tuples of one length");
    if (count < 0) return NULL;
    int fds[MAX_BOTS];
    if (fd_list(args[0], fds, count, "write_each") < 0) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *data = PyTuple_GET_ITEM(args[1], i);
        if (!PyBytes_Check(data)) {
            PyErr_SetString(PyExc_TypeError, "write_each: datas must be bytes");
            return NULL;
        }
        Py_ssize_t size = PyBytes_GET_SIZE(data);
        ssize_t written;
        do {
            written = write(fds[i], PyBytes_AS_STRING(data), (size_t)size);
        } while (written < 0 && errno == EINTR);
        if (written == size) continue;
        if (written < 0) written = (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
        return Py_BuildValue("(nn)", i, (Py_ssize_t)written);
    }
    return PyLong_FromLong(-1);
}

/* wait_lines(outs, errs, timeout_s) -> (lines, seconds, stop)
 *   lines: per bot, its whole answer line (bytes, newline included) or None;
 *   seconds: per bot, when its line was read, in seconds since the call began (0.0 without a line);
 *   stop: None when every bot answered, else (kind, index, chunk): STOP_DEADLINE (-1, None) when timeout_s
 *   passed, STOP_EVENT (-1, None) at any other readiness than an owed stdout's, STOP_CHUNK (index, chunk)
 *   when bot `index`'s read was not one whole line. A signal's handler may raise (Ctrl-C): that exception. */
static PyObject *wait_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t count = bot_count(args, nargs, 3, "wait_lines(outs, errs, timeout_s): two tuples of one length, "
                                                "a float");
    if (count < 0) return NULL;
    double timeout = PyFloat_AsDouble(args[2]);
    if (timeout == -1.0 && PyErr_Occurred()) return NULL;
    int fds[2 * MAX_BOTS];
    if (fd_list(args[0], fds, count, "wait_lines") < 0 || fd_list(args[1], fds + count, count, "wait_lines") < 0)
        return NULL;
    struct pollfd polled[2 * MAX_BOTS];
    for (Py_ssize_t i = 0; i < 2 * count; i++) {
        polled[i].fd = fds[i];
        polled[i].events = POLLIN;
        polled[i].revents = 0;
    }
    PyObject *lines = PyList_New(count), *seconds = PyList_New(count), *stop = NULL;
    if (lines == NULL || seconds == NULL) goto fail;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(lines, i, Py_None);
        PyObject *zero = PyFloat_FromDouble(0.0);
        if (zero == NULL) goto fail;
        PyList_SET_ITEM(seconds, i, zero);
    }
    static char buffer[READ_CHUNK]; /* the GIL is held while it is used */
    double started = now();
    Py_ssize_t owed = count;
    while (owed > 0 && stop == NULL) {
        double left = timeout - (now() - started);
        if (left <= 0) {
            stop = Py_BuildValue("(inO)", STOP_DEADLINE, (Py_ssize_t)-1, Py_None);
            break;
        }
        int ready, error;
        double wait_ms = ceil(left * 1000);
        Py_BEGIN_ALLOW_THREADS
        ready = poll(polled, (nfds_t)(2 * count), wait_ms > INT32_MAX ? INT32_MAX : (int)wait_ms);
        error = errno;
        Py_END_ALLOW_THREADS
        if (ready < 0) {
            if (error != EINTR) {
                errno = error;
                PyErr_SetFromErrno(PyExc_OSError);
                goto fail;
            }
            if (PyErr_CheckSignals() < 0) goto fail;
            continue;
        }
        for (Py_ssize_t i = 0; i < 2 * count && ready > 0 && stop == NULL; i++) {
            if (polled[i].revents == 0 || polled[i].fd < 0) continue;
            ready--;
            if (i >= count) { /* stderr: the Python wait reads it as this turn's output */
                stop = Py_BuildValue("(inO)", STOP_EVENT, (Py_ssize_t)-1, Py_None);
                break;
            }
            ssize_t got;
            do {
                got = read(polled[i].fd, buffer, READ_CHUNK);
            } while (got < 0 && errno == EINTR);
            if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue; /* not readable after all */
            if (got < 0) got = 0; /* a read error: the end of stdout, as os.read's OSError is taken */
            if (got > 0 && memchr(buffer, '\n', (size_t)got) == buffer + got - 1) {
                PyObject *line = PyBytes_FromStringAndSize(buffer, got), *when = PyFloat_FromDouble(now() - started);
                if (line == NULL || when == NULL) {
                    Py_XDECREF(line);
                    Py_XDECREF(when);
                    goto fail;
                }
                PyList_SetItem(lines, i, line); /* steals; drops the None */
                PyList_SetItem(seconds, i, when);
                polled[i].fd = -1; /* answered: poll ignores a negative fd */
                owed--;
                continue;
            }
            PyObject *chunk = PyBytes_FromStringAndSize(buffer, got);
            if (chunk == NULL) goto fail;
            stop = Py_BuildValue("(inN)", STOP_CHUNK, i, chunk);
        }
    }
    if (stop == NULL) {
        if (PyErr_Occurred()) goto fail;
        Py_INCREF(Py_None);
        stop = Py_None;
    }
    return Py_BuildValue("(NNN)", lines, seconds, stop);
fail:
    Py_XDECREF(lines);
    Py_XDECREF(seconds);
    Py_XDECREF(stop);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"write_each", (PyCFunction)(void (*)(void))write_each, METH_FASTCALL,
     "write_each(fds, datas): -1 when each data went whole to its fd, else (index, written) of the first not."},
    {"wait_lines", (PyCFunction)(void (*)(void))wait_lines, METH_FASTCALL,
     "wait_lines(outs, errs, timeout_s) -> (lines, seconds, stop): one whole answer line per bot, or the stop."},
    {NULL},
};

static struct PyModuleDef pipes_module = {
    PyModuleDef_HEAD_INIT, "_pipes", "The usual turn of persistent bots in C (see _pipes.c).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__pipes(void) {
    PyObject *module = PyModule_Create(&pipes_module);
    if (module == NULL) return NULL;
    if (PyModule_AddStringConstant(module, "SOURCE_SHA256", PIPES_SOURCE_SHA256) < 0 ||
        PyModule_AddIntConstant(module, "STOP_DEADLINE", STOP_DEADLINE) < 0 ||
        PyModule_AddIntConstant(module, "STOP_EVENT", STOP_EVENT) < 0 ||
        PyModule_AddIntConstant(module, "STOP_CHUNK", STOP_CHUNK) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
