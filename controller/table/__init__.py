"""The table: device events become engine inputs, recorded durably, applied, and published."""
