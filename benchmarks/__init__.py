"""Throughput benchmarks (not part of ``make test``): see :mod:`benchmarks.aec_throughput`."""
