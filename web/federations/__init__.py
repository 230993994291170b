"""The federation pages: the levy report and its CSV, and the club console's federation box."""
