"""Device interfaces and their backends (Pi hardware and simulated twins), injected by factories."""
