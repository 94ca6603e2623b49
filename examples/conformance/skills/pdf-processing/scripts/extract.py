"""Print the fields of a PDF form, one per line."""
import sys

for line in sys.stdin:
    print(line.strip())
