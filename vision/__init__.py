"""Reading dice from camera frames: detection, face reading, tray calibration, settle detection."""
