"""The JSON API's published contract (docs/api.md): the documents it answers, as models
(`documents`), and its OpenAPI document (`openapi`). Neither the server nor the command line:
`cok serve` answers by it, `cok schema api` prints it, and neither imports the other."""
