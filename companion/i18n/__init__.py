"""Words: the catalogues, the rules reference, what installed games bring."""
