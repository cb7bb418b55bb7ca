// Included by nothing: not a header of the library.
