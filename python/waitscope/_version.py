# The version of the Waitscope tools this package belongs to: the top CMakeLists.txt's
# project(VERSION); the test python_version keeps the two equal.
__version__ = "0.1.0"
