/* What the compiled kernels of games/ share (games/connect4/_solver.c, games/othello/_endgame.c):
 * the clock their deadlines are read against, a deadline taken from Python, the `nodes` counter
 * as a Python attribute, and a module holding one type.  Included once by each extension. */
#ifndef GAMES_KERNEL_H
#define GAMES_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <time.h>

/* time.monotonic() on Linux: the same clock, so a deadline computed in Python holds here. */
static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A time.monotonic() instant, or None for no deadline (0 here); an instant already past (or 0
 * itself) stops the search at its first look at the clock.  0 on success, -1 with an exception. */
static int read_deadline(PyObject *deadline, double *out) {
    if (deadline == Py_None) {
        *out = 0;
        return 0;
    }
    *out = PyFloat_AsDouble(deadline);
    if (*out == -1.0 && PyErr_Occurred()) return -1;
    if (*out <= 0) *out = 1e-9; /* already passed */
    return 0;
}

/* The getter, setter and PyGetSetDef table `TYPE_getset` of an unsigned long long `nodes` field
 * (NODES_ATTRIBUTE_OF: of the field at `FIELD`, one held inside the object, say). */
#define NODES_ATTRIBUTE_OF(TYPE, FIELD)                                                              \
    static PyObject *TYPE##_get_nodes(TYPE *self, void *Py_UNUSED(closure)) {                        \
        return PyLong_FromUnsignedLongLong(self->FIELD);                                             \
    }                                                                                                \
    static int TYPE##_set_nodes(TYPE *self, PyObject *value, void *Py_UNUSED(closure)) {             \
        if (!value) {                                                                                \
            PyErr_SetString(PyExc_TypeError, "nodes cannot be deleted");                            \
            return -1;                                                                               \
        }                                                                                            \
        unsigned long long nodes = PyLong_AsUnsignedLongLong(value);                                 \
        if (nodes == (unsigned long long)-1 && PyErr_Occurred()) return -1;                          \
        self->FIELD = nodes;                                                                         \
        return 0;                                                                                    \
    }                                                                                                \
    static PyGetSetDef TYPE##_getset[] = {                                                           \
        {"nodes", (getter)TYPE##_get_nodes, (setter)TYPE##_set_nodes, "nodes searched since the last reset", NULL}, \
        {NULL, NULL, NULL, NULL, NULL},                                                              \
    };
#define NODES_ATTRIBUTE(TYPE) NODES_ATTRIBUTE_OF(TYPE, nodes)

/* The module of `def` with `type` in it under `name`; NULL with an exception on failure. */
static PyObject *module_with_type(PyModuleDef *def, PyTypeObject *type, const char *name) {
    if (PyType_Ready(type) < 0) return NULL;
    PyObject *m = PyModule_Create(def);
    if (!m) return NULL;
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

#endif
