# vision/: frame sources, dice detection, face reading.
