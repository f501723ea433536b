"""Where a model runs: the measured placement, the back-end probe, the processor
calibration and the native helpers' self-test."""
