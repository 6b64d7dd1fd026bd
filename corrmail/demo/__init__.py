"""The demo tournament and the generated data sets of benchmarks and load tests."""
