"""The catalog's five tools on the official Python SDK (`mcp`), written as its README teaches:
MCPServer and decorated, annotated functions.

    python catalog.py               # stdio
    python catalog.py --http 8080   # Streamable HTTP on 127.0.0.1:8080/mcp
"""

import sys
from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

PRODUCTS = [("Espresso cup", 12.0), ("Travel mug", 24.0), ("Mug rack", 36.0)]

server = MCPServer("catalog", version="0.1.0")


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def search(
    query: Annotated[str, Field(description="Substring to match against product names")],
    limit: Annotated[int | None, Field(description="Maximum number of results (default 10)", le=50)] = None,
) -> str:
    """Search the product catalog"""
    found = [name for name, _ in PRODUCTS if query.lower() in name.lower()]
    return "\n".join(found[: limit or 10])


class Product(BaseModel):
    name: str
    price: float


@server.tool(name="product-details", annotations=ToolAnnotations(read_only_hint=True))
def product_details(
    name: Annotated[str, Field(description="The product's exact name, as `search` returns it")],
) -> Product:
    """Look up one product by its exact name"""
    for product, price in PRODUCTS:
        if product == name:
            return Product(name=product, price=price)
    raise ValueError(f"No product named {name!r} in the catalog")


class Weather(BaseModel):
    temperatureC: float
    summary: str


@server.tool(
    name="get-weather",
    title="Get Weather",
    annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
)
def get_weather(location: Annotated[str, Field(description="City name")]) -> Weather:
    """Get current weather for a location"""
    return Weather(temperatureC=22.0, summary=f"{location}: partly cloudy")


@server.tool()
def echo(message: Annotated[str, Field(description="The message to send back")]) -> str:
    """Echo the message back"""
    return message


@server.tool(
    name="clear-catalog",
    title="Clear the catalog",
    annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True),
)
def clear_catalog() -> str:
    """Remove every product from the catalog"""
    return "Catalog cleared"


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port, streamable_http_path="/mcp")
    else:
        server.run()
