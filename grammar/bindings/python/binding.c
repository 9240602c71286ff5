// Python binding of the kit grammar: `kit_core._kit_grammar.language()` returns the
// PyCapsule that py-tree-sitter's `Language(...)` takes. Built by setup.py at install.
#include <Python.h>

typedef struct TSLanguage TSLanguage;

TSLanguage *tree_sitter_kit(void);

static PyObject *_binding_language(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(args)) {
    return PyCapsule_New(tree_sitter_kit(), "tree_sitter.Language", NULL);
}

static struct PyModuleDef_Slot slots[] = {
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL}
};

static PyMethodDef methods[] = {
    {"language", _binding_language, METH_NOARGS,
     "Get the tree-sitter language for the kit design DSL."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_kit_grammar",
    .m_doc = NULL,
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC PyInit__kit_grammar(void) {
    return PyModuleDef_Init(&module);
}
