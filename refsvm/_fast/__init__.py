"""Compiled (Cython) mirror of the reference modules in :mod:`refsvm`.

``refsvm._fast.<name>`` exports the same public functions with the same
signatures as ``refsvm.<name>``; select one with
:func:`refsvm.backend.get_module`.
"""
