"""The app's routes, one module per area: thin handlers over the domain functions."""
