"""Write the JSON Schema files generated from the report and view models."""

import json
from pathlib import Path

from ragaudit.render.views import generate_schemas

here = Path(__file__).parent
for filename, schema in generate_schemas().items():
    (here / filename).write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    print(f"wrote {here / filename}")
