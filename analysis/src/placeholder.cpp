// placeholder: remove when the module has real sources
