"""Throughput benchmarks (not part of ``make test``): see :mod:`parlour.benchmarks.aec_throughput`."""
