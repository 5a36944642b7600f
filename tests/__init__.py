"""The test suite; its folders mirror the packages (docs/architecture.md, "Tests").

Every folder is a package, so a test module is imported by its full name and code the tests share
lives in ``tests.helpers``, never in a test module."""
