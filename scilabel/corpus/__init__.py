"""Building labelled data: generated pages from JATS, silver labels on real pages, field collections."""
