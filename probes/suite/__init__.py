"""The probes, one module per probe, each written once against the Backend protocol.

Imported only inside a worker (they use NumPy); the catalog names each probe's module.
"""
