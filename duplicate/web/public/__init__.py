"""What everyone sees (the ``web`` blueprint): results, rankings, route sheets by private link (`pages`,
their PDFs made in the background by `route_sheet_pdfs`), and the JSON API under ``/api`` (`api`: rankings,
electronic scoring with bearer tokens). The package imports none of its views: `duplicate.web.init_app`
does."""
