from .campaign_surface import CAMPAIGN_SURFACE

SURFACES = (CAMPAIGN_SURFACE,)
